/**
 * Add to cart: a POST to /cart that comes back to `returnTo` with "Added to your cart." (ADR 072).
 * A plain form, so it works without JavaScript; with it, the page stays and shows the message.
 */
import { ShoppingCart } from 'lucide-react';
import { Form, useNavigation } from 'react-router';
import { buttonClass, type ButtonSize } from '~/components/ui/button';

export function AddToCartForm({
  agentId,
  agentName,
  returnTo,
  size = 'md',
  className = '',
}: {
  agentId: string;
  agentName: string;
  returnTo: string;
  size?: ButtonSize;
  className?: string;
}) {
  const navigation = useNavigation();
  const adding =
    navigation.state !== 'idle' &&
    navigation.formData?.get('intent') === 'add' &&
    navigation.formData.get('agentId') === agentId;
  return (
    <Form method="post" action="/cart" preventScrollReset className={className}>
      <input type="hidden" name="agentId" value={agentId} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        name="intent"
        value="add"
        disabled={adding}
        className={buttonClass('secondary', size, 'w-full')}
      >
        <ShoppingCart aria-hidden="true" className="size-4" />
        {adding ? 'Adding…' : 'Add to cart'}
        <span className="sr-only"> {agentName}</span>
      </button>
    </Form>
  );
}
