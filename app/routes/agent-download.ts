/**
 * `GET /agent/:agentId/download[?version=x.y.z]`: the agent's package file, only for the buyer
 * of a completed purchase, the agent's seller and admins (app/server/downloads.server.ts). Signed
 * out: sign in and come back. Anyone else: 403, never the bytes. A resource route: it answers
 * with the file or a short plain-text status, no page.
 */
import { connectionContext, supabaseContext } from '~/context';
import { attachmentDisposition } from '~/lib/content-disposition';
import { AgentIdSchema } from '~/server/agent-detail.server';
import { authorizeDownload, readPackageFile, recordDownload, VersionParamSchema } from '~/server/downloads.server';
import { failIfInjected } from '~/server/faults.server';
import { requireUser } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/agent-download';

export const DOWNLOAD_MESSAGES = {
  notFound: 'This agent or version does not exist.',
  forbidden: 'Only the buyer of a completed purchase, the seller of this agent and administrators can download it.',
  missingFile: 'The package file of this agent is missing right now. Please try again later or contact the seller.',
} as const;

function textResponse(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export async function loader(args: Route.LoaderArgs) {
  const viewer = requireUser(args);
  const { params, request, context, url } = args;
  const agentId = AgentIdSchema.safeParse(params.agentId);
  const version = VersionParamSchema.safeParse(url.searchParams.get('version') ?? undefined);
  if (!agentId.success || !version.success) return textResponse(404, DOWNLOAD_MESSAGES.notFound);

  try {
    failIfInjected(request, 'download');
    const access = await authorizeDownload(context.get(supabaseContext), {
      agentId: agentId.data.toLowerCase(),
      buyerId: viewer.id,
      version: version.data,
    });
    if (!access.ok) {
      return access.reason === 'unknown-version'
        ? textResponse(404, DOWNLOAD_MESSAGES.notFound)
        : textResponse(403, DOWNLOAD_MESSAGES.forbidden);
    }
    const service = createServiceSupabase(context.get(connectionContext));
    const bytes = await readPackageFile(service, access.version);
    if (!bytes) return textResponse(503, DOWNLOAD_MESSAGES.missingFile);
    if (access.purchaseId) {
      await recordDownload(service, {
        purchaseId: access.purchaseId,
        agentId: agentId.data.toLowerCase(),
        buyerId: viewer.id,
        versionId: access.version.id,
      });
    }
    return new Response(bytes, {
      status: 200,
      headers: {
        'Content-Type': access.version.content_type,
        'Content-Disposition': attachmentDisposition(access.version.file_name),
        'Content-Length': String(bytes.byteLength),
        // no-transform: the compression middleware and proxies leave the file (and its length) as it is.
        'Cache-Control': 'private, no-store, no-transform',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (thrown) {
    // A failed backend call (unwrap, an injected fault): the same 503 as text, not a page.
    const message = unavailableMessage(thrown);
    if (message) return textResponse(503, message);
    throw thrown;
  }
}
