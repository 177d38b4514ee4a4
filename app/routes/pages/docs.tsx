import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'Getting started',
    body: (
      <p>
        {
          'Create a free account, browse the marketplace and add agents to your collection. Every purchased agent appears under Dashboard → My Collection, ready to download.'
        }
      </p>
    ),
  },
  {
    heading: 'Deploying an agent',
    body: (
      <p>
        {
          'Each agent package contains a README with its requirements, configuration and the environment variables it reads. Most agents run as a container or a serverless function.'
        }
      </p>
    ),
  },
  {
    heading: 'Selling agents',
    body: (
      <p>
        {
          'Sign up as a seller, then create a listing from your dashboard: name, description, features, price, category, images and the package file. Listings start as drafts and go live when you publish them.'
        }
      </p>
    ),
  },
  {
    heading: 'Accounts and security',
    body: (
      <p>
        {
          'Protect your account with a strong password and two-factor authentication from Profile & Settings → Security.'
        }
      </p>
    ),
  },
];

export const meta = () =>
  pageMeta('Documentation', 'Guides for buying, deploying and selling AI agents on AgentMarket.');

export default function DocsPage() {
  return (
    <InfoPage
      title={'Documentation'}
      intro={'Guides for buying, deploying and selling AI agents on AgentMarket.'}
      sections={SECTIONS}
    />
  );
}
