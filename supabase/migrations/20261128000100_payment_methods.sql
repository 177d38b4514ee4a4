-- Saved payment methods: what the payment provider gave back when a member saved a
-- card — its id at the provider, the brand, the last four digits and the expiry. Never a card
-- number or a CVC: those go to the provider and nowhere else. Written only by trusted server code
-- (the service role, after the route's guard: app/server/payment-methods.server.ts); members read
-- their own. At most one default per member (the card charges use).
create table public.payment_methods (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  provider text not null constraint payment_methods_provider_length check (char_length(provider) between 1 and 50),
  provider_method_id text not null
    constraint payment_methods_provider_method_id_length check (char_length(provider_method_id) between 1 and 255),
  brand text not null constraint payment_methods_brand_length check (char_length(brand) between 1 and 50),
  last4 text not null constraint payment_methods_last4_format check (last4 ~ '^[0-9]{4}$'),
  exp_month smallint not null constraint payment_methods_exp_month_range check (exp_month between 1 and 12),
  exp_year smallint not null constraint payment_methods_exp_year_range check (exp_year between 2000 and 2200),
  is_default boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index payment_methods_one_default_per_user on public.payment_methods (user_id) where is_default;
create unique index payment_methods_provider_method_key on public.payment_methods (provider, provider_method_id);
create index payment_methods_user_id_created_at_idx on public.payment_methods (user_id, created_at);

alter table public.payment_methods enable row level security;
revoke all on public.payment_methods from anon, authenticated;
grant select on public.payment_methods to authenticated;
create policy "members read their own payment methods" on public.payment_methods
  for select to authenticated using (user_id = (select auth.uid()));
select public.require_second_factor('public.payment_methods');

-- Makes one of the member's methods the default, in one statement's transaction (the partial
-- unique index allows one default: the old one is cleared first). False when the method is not
-- theirs. Service role only.
create function public.set_default_payment_method(target_user uuid, target_method uuid)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  if not exists (select 1 from public.payment_methods where id = target_method and user_id = target_user) then
    return false;
  end if;
  update public.payment_methods set is_default = false
    where user_id = target_user and is_default and id <> target_method;
  update public.payment_methods set is_default = true where id = target_method and not is_default;
  return true;
end;
$$;
revoke all on function public.set_default_payment_method(uuid, uuid) from public, anon, authenticated;
grant execute on function public.set_default_payment_method(uuid, uuid) to service_role;
