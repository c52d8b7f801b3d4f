import { useState } from 'react';
import { errorText } from '../lib/errors.ts';

/** What a page hands a dialog it opens: whether it is open, and what closing it and its action done do. */
export interface DialogProps {
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}

/** A dialog a button opens: closed, it just closes; its action done, it closes and `reload` runs. */
export function useDialog(reload: () => void): { open: () => void; props: DialogProps } {
  const [opened, setOpened] = useState(false);
  return {
    open: () => setOpened(true),
    props: {
      opened,
      onClose: () => setOpened(false),
      onDone: () => {
        setOpened(false);
        reload();
      },
    },
  };
}

/**
 * A dialog's action and the API's refusal of it: `attempt(action, then)` runs `action`; done, it
 * forgets the error and calls `then`; refused, it keeps the refusal's text to show. `clear` forgets it.
 */
export function useActionError() {
  const [error, setError] = useState<string>();
  const attempt = async (action: () => Promise<void>, then?: () => void) => {
    try {
      await action();
    } catch (err) {
      setError(errorText(err));
      return;
    }
    setError(undefined);
    then?.();
  };
  return { error, attempt, clear: () => setError(undefined) };
}
