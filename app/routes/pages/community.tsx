import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  { heading: 'Forum', body: <p>{'Share deployment tips, ask for agent recommendations and show what you built.'}</p> },
  {
    heading: 'Open source',
    body: <p>{'AgentMarket is open source. Issues and pull requests are welcome in our repository.'}</p>,
  },
  {
    heading: 'Code of conduct',
    body: <p>{'Be kind, be helpful and keep discussions on topic. Harassment is never tolerated.'}</p>,
  },
];

export const meta = () => pageMeta('Community', 'Meet the people who build and use AI agents.');

export default function CommunityPage() {
  return <InfoPage title={'Community'} intro={'Meet the people who build and use AI agents.'} sections={SECTIONS} />;
}
