import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'I bought an agent. Where is it?',
    body: <p>{'Open Dashboard → My Collection. Every completed purchase is there with a Download button.'}</p>,
  },
  {
    heading: 'Can I buy several agents at once?',
    body: (
      <p>
        {
          'Yes: choose Add to cart on each agent (on its page or in the marketplace), then open the cart from the header and choose Check out. You pay once, with your membership discount on each agent, and get one invoice with a line per agent. If an agent in your cart cannot be bought any more, the cart says why and nothing is charged until you remove it. A cart you fill before signing in is kept when you sign in.'
        }
      </p>
    ),
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
    heading: 'How do I ask a seller a question?',
    body: (
      <p>
        {
          'Sign in and choose "Message the seller" on the agent\'s page (or Contact Seller in Purchase History). Your conversations are under Dashboard → Messages, with new messages marked; you get an email about new messages at most once a quarter hour when email notifications are on. Messages are text only, up to 5,000 characters, 20 a minute. Under "Report or block" you can block the other person (neither of you can send until you unblock) or report the conversation to an administrator, who then reads it.'
        }
      </p>
    ),
  },
  {
    heading: 'Where is my licence key?',
    body: (
      <p>
        {
          'Every agent you buy comes with a licence key: open "Licence key" on its card in My Collection (it is on the invoice too). Paste it where the agent asks for it. If the seller limits activations, the card shows how many you used; "Reset activations" frees them, once a day. If the seller disables a licence, the card says why. Sellers check keys and publish updates through the API (see the API page); a new version is marked "Update available" on its card until you download it.'
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
    heading: 'What does AgentMarket keep of a sale?',
    body: (
      <p>
        {
          'The platform fee shown on Pricing and Become a Seller. Each sale is charged the fee in force on the day it is bought, and your Earnings page shows every sale with its fee. A refunded sale costs you nothing.'
        }
      </p>
    ),
  },
  {
    heading: 'The site says it is down for maintenance',
    body: (
      <p>
        {
          'During maintenance you can browse and sign in, but buying, selling, reviews and sign-up pause until it ends. Nothing you bought or listed is affected.'
        }
      </p>
    ),
  },
  {
    heading: 'Why am I asked to accept updated policies?',
    body: (
      <p>
        {
          'When we publish a new version of the Terms of Service or the Privacy Policy, we ask you to accept it before your next purchase; sellers accept a new Seller Policy before their next listing change. The page says what changed and links to the full text; every earlier version stays readable on the policy page.'
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
