import { useCallback, useContext, useEffect } from 'react';
import { Icon } from '../components/Icon';
import { toasts as text } from '../content/site';
import { ToastListContext, type Toast } from './context';
import { useToast } from './useToast';

/** Long enough to read the longest message twice. */
export const TOAST_DURATION_MS = 6000;

/**
 * The live region is in the prerendered page from the start, so screen readers announce what
 * is added to it later. Errors are alerts, everything else polite status messages.
 */
export function Toaster() {
  const list = useContext(ToastListContext);
  return (
    <section className="toaster" aria-label={text.regionLabel} aria-live="polite" aria-relevant="additions text">
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const { dismiss } = useToast();
  const close = useCallback(() => dismiss(toast.id), [dismiss, toast.id]);

  useEffect(() => {
    if (toast.variant === 'loading') return;
    const timer = setTimeout(close, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast.variant, close]);

  return (
    <div className={`toast toast--${toast.variant}`} role={toast.variant === 'error' ? 'alert' : 'status'}>
      <Icon name={toast.variant} className="toast-icon" />
      <p className="toast-message">{toast.message}</p>
      <button type="button" className="toast-close" onClick={close} aria-label={text.close}>
        <Icon name="close" />
      </button>
    </div>
  );
}
