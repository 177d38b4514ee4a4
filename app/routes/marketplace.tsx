import { pageMeta } from '~/lib/meta';

export const meta = () => pageMeta('Marketplace', 'Browse professional AI agents.');

export default function MarketplacePage() {
  return (
    <div className="container-page py-12">
      <h1 className="text-4xl font-bold">Marketplace</h1>
    </div>
  );
}
