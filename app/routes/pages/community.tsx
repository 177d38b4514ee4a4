import { Link } from 'react-router';
import { InfoPage, TEXT_LINK as LINK } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'Sellers and their agents',
    body: (
      <p>
        Every agent on the{' '}
        <Link to="/marketplace" className={LINK}>
          marketplace
        </Link>{' '}
        is made by an independent seller, whose storefront lists the rest of their work. Anyone can join them:{' '}
        <Link to="/become-seller" className={LINK}>
          become a seller
        </Link>
        .
      </p>
    ),
  },
  {
    heading: 'Reviews',
    body: (
      <p>
        Buyers rate and review the agents they bought (Rate, in{' '}
        <Link to="/dashboard/collection" className={LINK}>
          My Collection
        </Link>
        ), and sellers reply under each review: the agent pages are where the conversation happens.
      </p>
    ),
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
