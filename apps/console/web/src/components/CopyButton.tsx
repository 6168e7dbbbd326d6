import { useState } from 'react';

/**
 * Copies `text` to the clipboard, and says so next to the button. Where the page has no clipboard
 * (navigator.clipboard is only in secure contexts) or it refuses, the element `selectId` names
 * (the text shown beside the button) is selected instead, for the person to copy with the keyboard.
 */
export function CopyButton({ text, label, selectId }: { text: string; label: string; selectId?: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      // Absent outside secure contexts, whatever the types say.
      if (!(navigator.clipboard as Clipboard | undefined)) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid(selectText(selectId) ? 'Selected: press Ctrl+C (⌘C on a Mac) to copy it' : 'Copy failed: select the text and copy it');
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

/** Selects the whole text of the element with this id; false when there is none. */
function selectText(id: string | undefined): boolean {
  const element = id ? document.getElementById(id) : null;
  const selection = window.getSelection();
  if (!element || !selection) return false;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
  return true;
}
