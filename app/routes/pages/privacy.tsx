import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'What we collect',
    body: (
      <p>
        {
          'Your email address, the profile details you choose to add, your purchases and reviews, and the technical data needed to keep the service secure.'
        }
      </p>
    ),
  },
  {
    heading: 'How we use it',
    body: (
      <p>
        {
          'To run your account, process purchases, show your public profile according to your privacy settings, and send the emails you opted into.'
        }
      </p>
    ),
  },
  {
    heading: 'Your rights',
    body: (
      <p>{'You can export your data or delete your account at any time from Profile & Settings → Data & Export.'}</p>
    ),
  },
];

export const meta = () => pageMeta('Privacy Policy', 'What we collect, why, and the choices you have.');

export default function PrivacyPage() {
  return (
    <InfoPage title={'Privacy Policy'} intro={'What we collect, why, and the choices you have.'} sections={SECTIONS} />
  );
}
