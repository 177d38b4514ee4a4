/**
 * `GET /profile/export`: the signed-in user's data as a JSON download (the profile's Data & Export tab).
 * Read with their own client, so row-level security bounds what it holds.
 */
import { supabaseContext } from '~/context';
import { attachmentDisposition } from '~/lib/content-disposition';
import { exportAccount } from '~/server/account.server';
import { requirePermission } from '~/server/guards.server';
import type { Route } from './+types/profile-export';

export async function loader(args: Route.LoaderArgs) {
  const viewer = requirePermission(args, 'manage_profile');
  const now = new Date();
  const body = await exportAccount(args.context.get(supabaseContext), viewer, now);
  const fileName = `agentmarket-${viewer.username}-${now.toISOString().slice(0, 10)}.json`;
  return new Response(`${JSON.stringify(body, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': attachmentDisposition(fileName),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
