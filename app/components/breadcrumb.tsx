import { Link } from 'react-router';

/** 'Marketplace / CampaignPilot / Rate': links to the pages above, then the current page. */
export function Breadcrumb({ trail, current }: { trail: readonly { to: string; label: string }[]; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-700 dark:text-slate-300">
      {trail.map((step) => (
        <span key={step.to}>
          <Link to={step.to} className="underline-offset-2 hover:underline">
            {step.label}
          </Link>
          <span aria-hidden="true"> / </span>
        </span>
      ))}
      <span aria-current="page">{current}</span>
    </nav>
  );
}
