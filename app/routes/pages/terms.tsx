import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'Accounts',
    body: (
      <p>
        {
          'You are responsible for your account and for keeping your password secret. You must be at least 16 years old.'
        }
      </p>
    ),
  },
  {
    heading: 'Buying',
    body: (
      <p>
        {'A purchase gives you a licence to use the agent as its seller describes. Prices are shown in US dollars.'}
      </p>
    ),
  },
  {
    heading: 'Selling',
    body: <p>{'Sellers must own the rights to what they list, describe it honestly and support their buyers.'}</p>,
  },
  { heading: 'Termination', body: <p>{'We may suspend accounts that break these terms or the law.'}</p> },
];

export const meta = () =>
  pageMeta('Terms of Service', 'The rules for using AgentMarket. By creating an account you agree to them.');

export default function TermsPage() {
  return (
    <InfoPage
      title={'Terms of Service'}
      intro={'The rules for using AgentMarket. By creating an account you agree to them.'}
      sections={SECTIONS}
    />
  );
}
