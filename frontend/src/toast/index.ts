/** Toast notifications: the provider, the hook that shows them, and the live region that renders them. */
export type { ToastApi, ToastDetailLine } from './context';
export { ToastProvider } from './ToastProvider';
export { TOAST_DURATION_MS, Toaster } from './Toaster';
export { useToast } from './useToast';
