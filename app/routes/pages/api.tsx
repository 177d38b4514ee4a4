import { InfoPage } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';

const SECTIONS = [
  {
    heading: 'Data API',
    body: (
      <p>
        {
          'The catalogue of published agents is served by a PostgREST-compatible Data API at /rest/v1, the same one the app uses. Read the agents_with_stats view with your anon key; row-level security decides what each caller may see.'
        }
      </p>
    ),
  },
  {
    heading: 'Authentication',
    body: (
      <p>
        {
          'Sign in through /auth/v1 to obtain an access token, then send it as a Bearer token to read your own purchases and collection.'
        }
      </p>
    ),
  },
  {
    heading: 'Rate limits',
    body: <p>{'Be considerate: cache responses and page through results with limit and offset.'}</p>,
  },
];

export const meta = () => pageMeta('API', 'Programmatic access to the marketplace catalogue.');

export default function ApiPage() {
  return <InfoPage title={'API'} intro={'Programmatic access to the marketplace catalogue.'} sections={SECTIONS} />;
}
