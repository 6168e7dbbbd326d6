import { useId } from 'react';
import { CopyButton } from './CopyButton';

/** A value in code type with its copy button (which selects the value where there is no clipboard). */
export function CopyableCode({ text, label, testId, secret }: { text: string; label: string; testId?: string; secret?: boolean }) {
  const id = useId();
  return (
    <>
      <code id={id} data-testid={testId} className={secret ? 'secret' : undefined}>
        {text}
      </code>{' '}
      <CopyButton text={text} label={label} selectId={id} />
    </>
  );
}

/**
 * A line to paste into a terminal or a program, under its name, with its copy button (named for
 * the line and, where a page has several sets of lines, the set). The block is focusable so a
 * keyboard user can scroll it and select from it.
 */
export function CopyableLine({
  name,
  line,
  note,
  context,
  testId,
}: {
  name: string;
  line: string;
  note?: string | undefined;
  context?: string;
  testId?: string;
}) {
  const labelId = useId();
  const lineId = useId();
  const noteId = useId();
  return (
    <div className="ready-line" data-ready-line={name}>
      <p className="curl-label" id={labelId}>
        {name}
      </p>
      <pre className="curl" id={lineId} aria-labelledby={labelId} aria-describedby={note ? noteId : undefined} data-testid={testId} tabIndex={0}>
        {line}
      </pre>
      {note && (
        <p className="hint" id={noteId}>
          {note}
        </p>
      )}
      <p className="actions">
        <CopyButton text={line} label={`Copy the ${name} line${context ? `, ${context}` : ''}`} selectId={lineId} />
      </p>
    </div>
  );
}
