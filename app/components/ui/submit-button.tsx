import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from '~/components/ui/button';
import { Spinner } from '~/components/ui/field';

/**
 * A form's submit button that shows its form is on its way: disabled, with a spinner and
 * `pendingLabel` (else its own label) while `pending`. Without JavaScript it is a plain submit
 * button.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  variant = 'primary',
  size = 'md',
  wide = false,
  children,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className'> & {
  pending: boolean;
  pendingLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** The full width of its form. */
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" disabled={pending} className={buttonClass(variant, size, wide ? 'w-full' : '')} {...props}>
      {pending ? <Spinner /> : null}
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
