/**
 * Moments as a Dutch reader reads them, in the firm's own time (Europe/Amsterdam, summer
 * time included): 'maandag 23 november 2026 om 08.42 uur', as the Taalunie writes a time of
 * day (a full stop between hours and minutes, 'uur' after). The firm's e-mail and the answer to
 * an access request use them; each format is built on first use, so importing this costs nothing.
 */
const ZONE = 'Europe/Amsterdam';

let formats: { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat } | undefined;

function parts(moment: Date | string): Record<string, string> {
  formats ??= {
    date: new Intl.DateTimeFormat('nl-NL', { timeZone: ZONE, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }),
    time: new Intl.DateTimeFormat('nl-NL', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  };
  const date = new Date(moment);
  return Object.fromEntries(
    [...formats.date.formatToParts(date), ...formats.time.formatToParts(date)].map((part) => [part.type, part.value]),
  );
}

/** 'maandag 23 november 2026'. */
export function dutchDate(moment: Date | string): string {
  const { weekday, day, month, year } = parts(moment);
  return `${weekday} ${day} ${month} ${year}`;
}

/** '08.42 uur'. */
export function dutchTime(moment: Date | string): string {
  const { hour, minute } = parts(moment);
  return `${hour}.${minute} uur`;
}

/** 'maandag 23 november 2026 om 08.42 uur'. */
export function dutchDateTime(moment: Date | string): string {
  return `${dutchDate(moment)} om ${dutchTime(moment)}`;
}
