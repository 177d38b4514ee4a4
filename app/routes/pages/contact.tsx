import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'Support',
    body: <p>{'For help with purchases, downloads or your account, write to support@agentmarket.example.'}</p>,
  },
  { heading: 'Sellers', body: <p>{'Questions about listing, pricing or payouts: sellers@agentmarket.example.'}</p> },
  {
    heading: 'Security',
    body: <p>{'Report vulnerabilities responsibly to security@agentmarket.example. We credit every valid report.'}</p>,
  },
];

export const meta = () => pageMeta('Contact Us', 'We read every message and usually answer within one business day.');

export default function ContactPage() {
  return (
    <InfoPage
      title={'Contact Us'}
      intro={'We read every message and usually answer within one business day.'}
      sections={SECTIONS}
    />
  );
}
