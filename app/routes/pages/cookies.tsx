import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  { heading: 'Session cookies', body: <p>{'Keep you signed in. They are HttpOnly and sent only to this site.'}</p> },
  { heading: 'Preference cookies', body: <p>{'Remember your light or dark theme.'}</p> },
  { heading: 'No tracking', body: <p>{'We do not use advertising or cross-site tracking cookies.'}</p> },
];

export const meta = () =>
  pageMeta('Cookie Policy', 'We use a small number of cookies, all needed for the site to work.');

export default function CookiesPage() {
  return (
    <InfoPage
      title={'Cookie Policy'}
      intro={'We use a small number of cookies, all needed for the site to work.'}
      sections={SECTIONS}
    />
  );
}
