import type { ReadyLine } from '@cloud/sdk/browser';
import { useId, type ReactNode } from 'react';
import { CopyableLine } from './Copyable';

/** Named lines to paste (curl, ethers, cast, litecoin-cli), each with its copy button and what it needs. */
export function ReadyLines(props: { lines: readonly ReadyLine[]; title: string; level?: 3 | 4; testId?: string; children?: ReactNode }) {
  const { lines, title, testId, children } = props;
  const titleId = useId();
  const Heading = props.level === 4 ? 'h4' : 'h3';
  if (lines.length === 0) return null;
  return (
    <div className="ready-lines" role="group" aria-labelledby={titleId} data-testid={testId}>
      <Heading id={titleId}>{title}</Heading>
      {children}
      {lines.map((line) => (
        <CopyableLine key={line.name} name={line.name} line={line.line} note={line.note} context={title.charAt(0).toLowerCase() + title.slice(1)} />
      ))}
    </div>
  );
}
