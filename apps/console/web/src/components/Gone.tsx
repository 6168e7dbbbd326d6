import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A detail page whose thing is not (or no longer) the person's: says so, with a link to the list. */
export function Gone({ title, children, list }: { title: string; children: ReactNode; list: { to: string; label: string } }) {
  return (
    <>
      <h1>{title}</h1>
      <p role="alert">{children}</p>
      <Link to={list.to}>{list.label}</Link>
    </>
  );
}
