import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toasts as text } from '../content/site';
import { Icon } from './icons';

export type ToastVariant = 'loading' | 'success' | 'error';

interface Toast {
  id: number;
  variant: ToastVariant;
  message: string;
}

export interface ToastApi {
  /** Stays until dismissed. */
  loading(message: string): number;
  success(message: string): number;
  error(message: string): number;
  dismiss(id: number): void;
}

/** Long enough to read the longest message twice. */
export const TOAST_DURATION_MS = 6000;

const ToastContext = createContext<ToastApi | null>(null);
const ToastListContext = createContext<readonly Toast[]>([]);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [list, setList] = useState<readonly Toast[]>([]);
  const nextId = useRef(1);

  const api = useMemo<ToastApi>(() => {
    const show = (variant: ToastVariant) => (message: string) => {
      const id = nextId.current++;
      setList((current) => [...current, { id, variant, message }]);
      return id;
    };
    return {
      loading: show('loading'),
      success: show('success'),
      error: show('error'),
      dismiss: (id) => setList((current) => current.filter((toast) => toast.id !== id)),
    };
  }, []);

  return (
    <ToastContext.Provider value={api}>
      <ToastListContext.Provider value={list}>{children}</ToastListContext.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a <ToastProvider> above it.');
  return api;
}

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
