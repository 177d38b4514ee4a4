import type { ReactNode } from 'react';

/** A link inside an information page's text: underlined, so it stands apart from the words around it. */
export const TEXT_LINK = 'font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300';

/** The shared shape of the information pages (footer links): a heading, an intro, sections. */
export function InfoPage({
  title,
  intro,
  sections,
  children,
}: {
  title: string;
  intro: string;
  sections?: { heading: string; body: ReactNode }[];
  children?: ReactNode;
}) {
  return (
    <article className="container-page max-w-3xl py-12">
      <h1 className="text-4xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">{intro}</p>
      {sections?.map((section) => (
        <section key={section.heading} className="mt-8">
          <h2 className="text-xl font-semibold">{section.heading}</h2>
          <div className="mt-2 space-y-2 text-slate-700 dark:text-slate-300">{section.body}</div>
        </section>
      ))}
      {children}
    </article>
  );
}
