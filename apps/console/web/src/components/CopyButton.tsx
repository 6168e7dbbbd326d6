import { useState } from 'react';

/** Copies `text` to the clipboard, and says so (or that it could not) next to the button. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('Copy failed: select the text and copy it');
    }
  };
  return (
    <span className="copy">
      <button type="button" className="button-small" onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      <span role="status" className="copy-said">
        {said}
      </span>
    </span>
  );
}
