/**
 * Real Google sign-in: the OpenID Connect authorization code flow with PKCE, state and nonce,
 * through openid-client. `/authorize` sends the browser to Google; Google sends it back to
 * `/callback`, where the code is exchanged and the ID token verified (signature, issuer,
 * audience, expiry, nonce) before its claims become the Google profile.
 */
import * as client from 'openid-client';
import type { GoogleClientConfig } from './config';
import type { Json } from './users';

export interface GoogleAuthorization {
  url: string;
  /** What the callback needs to finish this flow; kept in `auth.flow_state.idp_checks`. */
  checks: IdpChecks;
}

export interface IdpChecks {
  codeVerifier: string;
  nonce: string;
}

export interface GoogleResult {
  profile: Json;
  accessToken: string;
  refreshToken: string | null;
}

export interface GoogleOidc {
  authorizationUrl(state: string, redirectUri: string, extra: Record<string, string>): Promise<GoogleAuthorization>;
  /** Throws when the IdP refuses the code or the ID token does not verify. */
  finish(callbackUrl: URL, state: string, checks: IdpChecks): Promise<GoogleResult>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function createGoogleOidc(settings: GoogleClientConfig): GoogleOidc {
  let configuration: Promise<client.Configuration> | null = null;
  // Discovery happens on first use (not at start-up, so the app starts without network) and is
  // retried on the next sign-in if it failed.
  const configure = () => {
    configuration ??= (async () => {
      const issuer = new URL(settings.issuer);
      // Plain HTTP only for an IdP on this machine (the tests' mock IdP); Google is HTTPS.
      const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
      const config = await client.discovery(
        issuer,
        settings.clientId,
        settings.clientSecret,
        undefined,
        insecure ? { execute: [client.allowInsecureRequests] } : undefined,
      );
      // Verify the ID token's signature against the IdP's published keys as well.
      client.enableNonRepudiationChecks(config);
      return config;
    })().catch((error: unknown) => {
      configuration = null;
      throw error;
    });
    return configuration;
  };

  return {
    async authorizationUrl(state, redirectUri, extra) {
      const config = await configure();
      const codeVerifier = client.randomPKCECodeVerifier();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        ...extra,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.toString(), checks: { codeVerifier, nonce } };
    },

    async finish(callbackUrl, state, checks) {
      const config = await configure();
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the IdP returned no ID token');
      const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : '';
      if (!email) throw new Error('the ID token carries no email');
      const name = typeof claims.name === 'string' && claims.name ? claims.name : email.split('@')[0]!;
      const picture = typeof claims.picture === 'string' ? claims.picture : '';
      return {
        profile: {
          iss: claims.iss,
          sub: claims.sub,
          name,
          full_name: name,
          email,
          // Only an email the IdP vouches for may link to an existing account.
          email_verified: claims.email_verified === true,
          phone_verified: false,
          ...(picture ? { picture, avatar_url: picture } : {}),
          provider_id: claims.sub,
        },
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token ?? null,
      };
    },
  };
}
