import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, ToastProvider, Toaster, useToast, type ToastApi } from '.';
import { toasts } from '../content/site';

let api!: ToastApi;
function Capture({ onApi }: { onApi: (api: ToastApi) => void }) {
  onApi(useToast());
  return null;
}

function renderToaster() {
  render(
    <ToastProvider>
      <Capture onApi={(value) => (api = value)} />
      <Toaster />
    </ToastProvider>,
  );
}

describe('Toaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is a labelled polite live region that exists before any toast', () => {
    renderToaster();
    const region = screen.getByRole('region', { name: 'Meldingen' });
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toBeEmptyDOMElement();
  });

  it('announces loading and success as status, errors as alerts, each with an icon', () => {
    renderToaster();
    act(() => {
      api.loading('Bezig');
      api.success('Gelukt');
      api.error('Mislukt');
    });
    expect(screen.getAllByRole('status').map((t) => t.textContent)).toEqual(['Bezig', 'Gelukt']);
    expect(screen.getByRole('alert')).toHaveTextContent('Mislukt');
    expect(screen.getByRole('alert')).toHaveClass('toast--error');
    expect(screen.getByRole('region').querySelectorAll('svg.toast-icon')).toHaveLength(3);
  });

  it('dismisses success and error toasts by themselves, and a loading toast only by id', () => {
    renderToaster();
    let loading = 0;
    act(() => {
      loading = api.loading('Bezig');
      api.success('Gelukt');
    });
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(screen.queryByText('Gelukt')).toBeNull();
    expect(screen.getByText('Bezig')).toBeInTheDocument();
    act(() => api.dismiss(loading));
    expect(screen.queryByText('Bezig')).toBeNull();
  });

  it('closes a toast with its close button', () => {
    renderToaster();
    act(() => void api.error('Mislukt'));
    act(() => screen.getByRole('button', { name: toasts.close }).click());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
