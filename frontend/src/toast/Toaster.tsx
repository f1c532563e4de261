import { useCallback, useContext, useEffect, useRef } from 'react';
import { Icon } from '../components/Icon';
import { toasts as text } from '../content/site';
import { ToastListContext, type Toast, type ToastDetailLine } from './context';
import { useToast } from './useToast';
import { useToasterRoom } from './useToasterRoom';

/** Long enough to read the longest message twice. */
export const TOAST_DURATION_MS = 6000;

/**
 * The live region is in the prerendered page from the start, so screen readers announce what
 * is added to it later. Errors are alerts, everything else polite status messages.
 */
export function Toaster() {
  const list = useContext(ToastListContext);
  const region = useRef<HTMLElement>(null);
  useToasterRoom(region, list);
  return (
    <section ref={region} className="toaster" aria-label={text.regionLabel} aria-live="polite" aria-relevant="additions text">
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const { dismiss } = useToast();
  const close = useCallback(() => dismiss(toast.id), [dismiss, toast.id]);

  // A toast with a second line holds what the visitor may want to note down (a phone number):
  // it stays until closed or replaced, rather than leave while someone is still reading it.
  const lasting = toast.variant === 'loading' || toast.detail !== undefined;
  useEffect(() => {
    if (lasting) return;
    const timer = setTimeout(close, TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [lasting, close]);

  return (
    <div className={`toast toast--${toast.variant}`} role={toast.variant === 'error' ? 'alert' : 'status'}>
      <Icon name={toast.variant} className="toast-icon" />
      <div className="toast-body">
        <p className="toast-message">{toast.message}</p>
        {toast.detail?.map((line, i) => (
          <ToastDetail key={i} parts={line} />
        ))}
      </div>
      <button type="button" className="toast-close" onClick={close} aria-label={text.close}>
        <Icon name="close" />
      </button>
    </div>
  );
}

function ToastDetail({ parts }: { parts: ToastDetailLine }) {
  return (
    <p className="toast-detail">
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a key={i} href={part.href}>
            {part.label}
          </a>
        ),
      )}
    </p>
  );
}
