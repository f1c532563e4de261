import { createContext } from 'react';

export type ToastVariant = 'loading' | 'success' | 'error';

export interface Toast {
  id: number;
  variant: ToastVariant;
  message: string;
}

export interface ToastApi {
  /** Stays until dismissed. */
  loading(this: void, message: string): number;
  success(this: void, message: string): number;
  error(this: void, message: string): number;
  dismiss(this: void, id: number): void;
}

/** The API and the list are separate contexts, so components that only show toasts never re-render on a new one. */
export const ToastApiContext = createContext<ToastApi | null>(null);
export const ToastListContext = createContext<readonly Toast[]>([]);
