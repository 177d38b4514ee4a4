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
          'An agent package is the file its seller uploaded: a JSON manifest (its prompts, tools and configuration) or a ZIP archive. My Collection downloads the latest version; the Changelog on the agent page lists every version with its release notes, and you can download earlier versions of agents you own.'
        }
      </p>
    ),
  },
  {
    heading: 'Selling agents',
    body: (
      <p>
        {
          'Choose Become a Seller, then create a listing from Dashboard → Upload Agent: name, description, category, price, features, a thumbnail and images, and the package file. Save it as a draft or publish it; only published agents appear in the marketplace. Each new package you upload is a new version with its own release notes.'
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
