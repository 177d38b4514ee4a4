/**
 * Signed upload URLs (`createSignedUploadUrl` / `uploadToSignedUrl`): signing checks, in a
 * rolled-back transaction, that the caller could insert the object; the upload then runs with
 * the token's authority and records the signer as owner. Only an upload token opens this door: a
 * signed download link for the same key is refused.
 */
import { jsonResponse } from '../context';
import { withClaims, type Claims } from '../database';
import { findBucket } from './buckets';
import { bucketNotFound } from './errors';
import { checkObjectKey } from './keys';
import { signToken, uploadObject, verifySignedToken, type ObjectServices } from './objects';

const UPLOAD_TOKEN_SECONDS = 2 * 3600;

class ProbeDone extends Error {}

export async function signUpload(
  services: ObjectServices,
  claims: Claims,
  request: Request,
  bucketId: string,
  rawKey: string,
): Promise<Response> {
  const key = checkObjectKey(rawKey);
  if (!(await findBucket(services.db, bucketId))) throw bucketNotFound();
  const upsert = request.headers.get('x-upsert') === 'true';
  try {
    await withClaims(services.db, claims, async (tx) => {
      await tx.query(
        `insert into storage.objects (bucket_id, name, owner_id) values ($1, $2, $3)
         ${upsert ? 'on conflict (bucket_id, name) do update set updated_at = now()' : ''}`,
        [bucketId, key, typeof claims.sub === 'string' ? claims.sub : null],
      );
      throw new ProbeDone();
    });
  } catch (error) {
    if (!(error instanceof ProbeDone)) throw error;
  }
  const token = await signToken(services, 'upload', bucketId, key, UPLOAD_TOKEN_SECONDS, {
    owner: claims.sub ?? null,
    upsert,
  });
  return jsonResponse({ url: `/object/upload/sign/${bucketId}/${key}?token=${token}`, token });
}

export async function uploadWithToken(
  services: ObjectServices,
  request: Request,
  bucketId: string,
  key: string,
  token: string | null,
): Promise<Response> {
  const payload = await verifySignedToken(services, 'upload', bucketId, key, token);
  const claims: Claims = { role: 'service_role', ...(typeof payload.owner === 'string' ? { sub: payload.owner } : {}) };
  return uploadObject(services, claims, request, bucketId, key, 'create', payload.upsert === true);
}
