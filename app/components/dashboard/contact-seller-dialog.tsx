/** Contact Seller: the seller's contact details and a drafted message, as a dialog in the URL. */
import { Mail, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';
import { SellerContactLinks } from '~/components/agents/seller-contact';
import { Avatar } from '~/components/ui/avatar';
import { buttonClass } from '~/components/ui/button';
import { UrlDialog } from '~/components/ui/url-dialog';
import { conversationsPath } from '~/lib/dashboard-nav';
import { useOptionalViewer } from '~/lib/use-viewer';
import {
  QUICK_MESSAGES,
  contactDraft,
  mailtoHref,
  responseTimeLabel,
  type SellerContact,
} from '~/lib/purchase-history';

const SECONDARY = 'text-sm text-slate-700 dark:text-slate-300';

/**
 * Contact Seller, open while the URL has `contact=<purchase id>`: drawn by the server, so it
 * works without JavaScript; Close is a link to the same URL without it.
 */
export function ContactSellerDialog({
  contact,
  buyerName,
  closeHref,
}: {
  contact: SellerContact;
  buyerName: string;
  closeHref: string;
}) {
  const responds = responseTimeLabel(contact.responseHours);
  const draft = (message?: string) =>
    contactDraft({
      agentName: contact.agentName,
      sellerName: contact.sellerName,
      buyerName,
      purchasedOn: contact.purchasedOn,
      message,
    });
  const email = contact.email;
  const viewer = useOptionalViewer();

  return (
    <UrlDialog
      title="Contact Seller"
      titleId="contact-seller-title"
      describedBy="contact-seller-about"
      closeHref={closeHref}
      closeLabel="Close dialog"
      returnFocusId={`contact-${contact.purchaseId}`}
      width="max-w-lg"
    >
      <p id="contact-seller-about" className={`mt-1 ${SECONDARY}`}>
        About {contact.agentName}, purchased {contact.purchasedOn}
      </p>

      <div className="mt-5 flex items-center gap-3 rounded-xl bg-slate-50 p-4 dark:bg-slate-800">
        <Avatar name={contact.sellerName} url={contact.pictureUrl} size="md" />
        <div>
          <p className="font-semibold">{contact.sellerName}</p>
          <p className="flex items-center gap-1.5 text-sm text-slate-700 dark:text-slate-300">
            <span
              aria-hidden="true"
              className={`inline-block size-2.5 rounded-full ${contact.online ? 'bg-green-500' : 'bg-slate-400 dark:bg-slate-500'}`}
            />
            {contact.online ? 'Online' : 'Offline'}
            {responds ? <span> · {responds}</span> : null}
          </p>
        </div>
      </div>

      <SellerContactLinks
        email={email}
        phone={contact.phone}
        website={contact.website}
        label={`How to reach ${contact.sellerName}`}
        className="mt-4"
      />

      <Link
        to={`${conversationsPath(viewer?.role)}/new?agent=${contact.agentId}`}
        className={`${buttonClass('secondary', 'sm')} mt-4`}
      >
        <MessageSquare aria-hidden="true" className="size-4" />
        Message {contact.sellerName} on AgentMarket
      </Link>

      <h3 className="mt-6 text-sm font-semibold">Quick messages</h3>
      {email ? (
        <ul className="mt-2 flex flex-col gap-2">
          {QUICK_MESSAGES.map((message) => (
            <li key={message}>
              <a
                href={mailtoHref(email, draft(message))}
                className="block rounded-lg border border-slate-200 px-3 py-2 text-sm hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800"
              >
                {message}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <>
          <ul className="mt-2 flex flex-col gap-2">
            {QUICK_MESSAGES.map((message) => (
              <li
                key={message}
                className="rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-300"
              >
                {message}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm font-medium">This seller does not share an email address.</p>
        </>
      )}

      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link to={closeHref} preventScrollReset className={buttonClass('secondary')}>
          Close
        </Link>
        {email ? (
          <a href={mailtoHref(email, draft())} className={buttonClass('primary')}>
            <Mail aria-hidden="true" className="size-4" />
            Send Email
          </a>
        ) : null}
      </div>
    </UrlDialog>
  );
}
