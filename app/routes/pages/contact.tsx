import { Link } from 'react-router';
import { InfoPage, TEXT_LINK as LINK } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'An agent you bought',
    body: (
      <p>
        Write to its seller: Contact Seller, beside the purchase in{' '}
        <Link to="/dashboard/purchases" className={LINK}>
          Purchase History
        </Link>
        . The seller can refund a purchase; if you cannot agree, an administrator can.
      </p>
    ),
  },
  {
    heading: 'Questions about the marketplace',
    body: (
      <p>
        The{' '}
        <Link to="/help" className={LINK}>
          Help Center
        </Link>{' '}
        answers the questions buyers and sellers ask most, and the{' '}
        <Link to="/docs" className={LINK}>
          Documentation
        </Link>{' '}
        walks through buying, deploying and selling.
      </p>
    ),
  },
  {
    heading: 'Selling',
    body: (
      <p>
        Listing, pricing and the platform fee are explained on{' '}
        <Link to="/become-seller" className={LINK}>
          Become a Seller
        </Link>
        .
      </p>
    ),
  },
];

export const meta = () =>
  pageMeta('Contact Us', 'Who answers what: sellers for their agents, the Help Center for the rest.');

export default function ContactPage() {
  return (
    <InfoPage
      title={'Contact Us'}
      intro={'Who answers what: sellers for their agents, the Help Center for the rest.'}
      sections={SECTIONS}
    />
  );
}
