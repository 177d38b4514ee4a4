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
          'Purchase History shows the status of every order. Pending payments settle within minutes; failed payments are never charged.'
        }
      </p>
    ),
  },
  {
    heading: 'How do refunds work?',
    body: (
      <p>
        {
          'Contact the seller from Purchase History first. If you cannot reach an agreement, contact us and an administrator will review the dispute.'
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
