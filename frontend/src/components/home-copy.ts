import { createContext, useContext } from 'react';
import { about, contact, hero, services, servicesSection } from '../content/site';

/**
 * The texts of the home page's sections as the firm writes them. The sections read them from
 * here rather than from the content module, so that the prerender's render can set the page
 * with other texts (`render('home', { copy })`): the typography test lays out invented texts
 * of every length in the site's own components and stylesheet.
 */
export const HOME_COPY = { hero, about, services, servicesSection, contact };
export type HomeCopy = typeof HOME_COPY;

const HomeCopyContext = createContext<HomeCopy>(HOME_COPY);

export const HomeCopyProvider = HomeCopyContext.Provider;

export function useHomeCopy(): HomeCopy {
  return useContext(HomeCopyContext);
}
