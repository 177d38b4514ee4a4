/**
 * Signs in as a seeded demo account through the sign-in form's POST and returns its session as a
 * `Cookie` header value (the `sb-` cookies), for measurements of signed-in pages.
 */
export async function signIn(origin, email = 'buyer@demo.test', password = 'demo-password') {
  const response = await fetch(`${origin}/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, redirectTo: '/marketplace' }),
  });
  const cookies = response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .filter((pair) => pair.startsWith('sb-') && !pair.endsWith('='));
  if (response.status < 300 || response.status >= 400 || cookies.length === 0) {
    throw new Error(`Sign-in failed: HTTP ${response.status}, ${cookies.length} sb- cookies`);
  }
  return cookies.join('; ');
}
