-- Billing: every charge records the payment method it was made with, as the label a
-- member reads on Billing and on the invoice ("Visa •••• 4242"); never a card number. Null on
-- records made before saved payment methods existed (and on test-mode charges without one).
alter table public.purchases
  add column payment_method text constraint purchases_payment_method_length check (char_length(payment_method) <= 100);
alter table public.subscription_charges
  add column payment_method text
    constraint subscription_charges_payment_method_length check (char_length(payment_method) <= 100);
