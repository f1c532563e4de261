import './styles/index.css';

const boot = () => void import('./boot');

/**
 * The entry the HTML loads. The prerendered page is complete and styled without script, so
 * React (~70 KB) is fetched only once the browser reports the first contentful paint: before
 * then it would share the connection with the HTML and CSS and delay the first view (LCP).
 * A page that is not prerendered (the dev server) has nothing to paint and boots at once.
 */
const prerendered = document.getElementById('root')!.firstElementChild !== null;
if (prerendered && PerformanceObserver.supportedEntryTypes.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    boot();
  }).observe({ type: 'paint', buffered: true });
} else {
  boot();
}
