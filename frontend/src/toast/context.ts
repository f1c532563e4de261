import { createContext } from 'react';

export type ToastVariant = 'loading' | 'success' | 'error';

/** A piece of a line under a toast's message: text, or a link (a phone number, an e-mail address). */
export type ToastDetailPart = string | { href: string; label: string };

/** A line under a toast's message. */
export type ToastDetailLine = readonly ToastDetailPart[];

export interface Toast {
  id: number;
  variant: ToastVariant;
  message: string;
  /** Lines under the message, for what the visitor can do next. */
  detail?: readonly ToastDetailLine[];
}

export interface ToastOptions {
  detail?: readonly ToastDetailLine[];
}

export interface ToastApi {
  /** Stays until dismissed. */
  loading(this: void, message: string): number;
  success(this: void, message: string, options?: ToastOptions): number;
  /** With a detail, stays until closed: it holds what the visitor may want to note down. */
  error(this: void, message: string, options?: ToastOptions): number;
  dismiss(this: void, id: number): void;
}

/** The API and the list are separate contexts, so components that only show toasts never re-render on a new one. */
export const ToastApiContext = createContext<ToastApi | null>(null);
export const ToastListContext = createContext<readonly Toast[]>([]);
