import { useContext } from 'react';
import { ToastApiContext, type ToastApi } from './context';

export function useToast(): ToastApi {
  const api = useContext(ToastApiContext);
  if (!api) throw new Error('useToast needs a <ToastProvider> above it.');
  return api;
}
