import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'I bought an agent. Where is it?',
    body: <p>{'Open Dashboard → My Collection. Every completed purchase is there with a Download button.'}</p>,
  },
  {
    heading: 'A payment is pending or failed',
    body: (
      <p>
        {
          'Purchase History shows the status of every order. A pending payment settles as soon as the payment provider confirms it; a failed payment is never charged, and you can buy the agent again.'
        }
      </p>
    ),
  },
  {
    heading: 'How do refunds work?',
    body: (
      <p>
        {
          'Use Contact Seller in Purchase History first: the seller can refund a purchase from their Earnings page. If you cannot reach an agreement, contact us and an administrator will review it and can refund it. A refunded agent leaves your collection.'
        }
      </p>
    ),
  },
  {
    heading: 'I forgot my password',
    body: <p>{'Choose Sign In, then "Forgot your password", and follow the link we email you.'}</p>,
  },
];

export const meta = () => pageMeta('Help Center', 'Answers to the questions buyers and sellers ask most.');

export default function HelpPage() {
  return (
    <InfoPage
      title={'Help Center'}
      intro={'Answers to the questions buyers and sellers ask most.'}
      sections={SECTIONS}
    />
  );
}
