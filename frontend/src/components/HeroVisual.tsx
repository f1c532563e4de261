/**
 * The hero image, drawn in SVG: a dashboard with a rising result line, a forecast, a bar
 * chart and a ratio ring. Abstract on purpose (no figures to get wrong), crisp at any size,
 * and about 2 KB instead of a photo. Decorative, so hidden from assistive technology.
 */
export function HeroVisual() {
  const result = 'M72 300 L120 282 L168 292 L216 254 L264 262 L312 220 L360 230 L408 182 L448 160';
  const forecast = 'M72 318 L140 304 L208 310 L276 288 L344 294 L412 266 L448 256';
  return (
    <svg className="hero-svg" viewBox="0 0 560 460" width="560" height="460" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="hero-area" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#f2a93b" stopOpacity="0.38" />
          <stop offset="1" stopColor="#f2a93b" stopOpacity="0" />
        </linearGradient>
        <radialGradient id="hero-glow">
          <stop offset="0" stopColor="#3d6bb3" stopOpacity="0.45" />
          <stop offset="1" stopColor="#3d6bb3" stopOpacity="0" />
        </radialGradient>
      </defs>

      <circle cx="290" cy="230" r="230" fill="url(#hero-glow)" />

      {/* Main panel */}
      <rect x="40" y="56" width="440" height="304" rx="24" fill="#132c54" stroke="#ffffff" strokeOpacity="0.14" />
      <rect x="72" y="88" width="132" height="10" rx="5" fill="#ffffff" fillOpacity="0.55" />
      <rect x="72" y="108" width="84" height="8" rx="4" fill="#ffffff" fillOpacity="0.22" />
      <rect x="296" y="86" width="76" height="30" rx="15" fill="#f2a93b" fillOpacity="0.16" stroke="#f2a93b" strokeOpacity="0.6" />
      <path d="m316 106 8-9 8 6 12-12" fill="none" stroke="#f2a93b" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
      <g stroke="#ffffff" strokeOpacity="0.08">
        {[150, 190, 230, 270, 310].map((y) => (
          <path key={y} d={`M72 ${y}H448`} />
        ))}
      </g>
      <path d={`${result} L448 330 L72 330 Z`} fill="url(#hero-area)" />
      <path d={forecast} fill="none" stroke="#8fb8ff" strokeOpacity="0.7" strokeWidth="2" strokeDasharray="6 7" strokeLinecap="round" />
      <path d={result} fill="none" stroke="#f2a93b" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round" />
      <circle cx="448" cy="160" r="13" fill="#f2a93b" fillOpacity="0.22" />
      <circle cx="448" cy="160" r="6" fill="#f2a93b" />

      {/* Bar chart card */}
      <rect x="14" y="306" width="196" height="130" rx="20" fill="#071429" fillOpacity="0.35" transform="translate(0 8)" />
      <rect x="8" y="300" width="196" height="130" rx="20" fill="#ffffff" />
      <rect x="30" y="322" width="70" height="8" rx="4" fill="#0b1f3f" fillOpacity="0.75" />
      <rect x="30" y="338" width="44" height="6" rx="3" fill="#0b1f3f" fillOpacity="0.25" />
      {[
        [32, 386, 24],
        [60, 376, 34],
        [88, 380, 30],
        [116, 364, 46],
      ].map(([x, y, h]) => (
        <rect key={x} x={x} y={y} width="18" height={h} rx="4" fill="#1d3b6b" fillOpacity="0.85" />
      ))}
      <rect x="144" y="352" width="18" height="58" rx="4" fill="#f2a93b" />
      <path d="M28 412H184" stroke="#0b1f3f" strokeOpacity="0.12" />

      {/* Ratio ring card */}
      <rect x="406" y="10" width="146" height="128" rx="20" fill="#071429" fillOpacity="0.35" transform="translate(0 8)" />
      <rect x="400" y="4" width="146" height="128" rx="20" fill="#ffffff" />
      <circle cx="448" cy="68" r="26" fill="none" stroke="#0b1f3f" strokeOpacity="0.1" strokeWidth="9" />
      <circle
        cx="448"
        cy="68"
        r="26"
        fill="none"
        stroke="#0b1f3f"
        strokeWidth="9"
        strokeDasharray="118 164"
        strokeLinecap="round"
        transform="rotate(-90 448 68)"
      />
      <rect x="486" y="52" width="42" height="8" rx="4" fill="#0b1f3f" fillOpacity="0.7" />
      <rect x="486" y="68" width="30" height="6" rx="3" fill="#0b1f3f" fillOpacity="0.25" />
      <rect x="486" y="82" width="36" height="6" rx="3" fill="#f2a93b" />

      {/* The 'streepje' ahead */}
      <rect x="400" y="392" width="120" height="10" rx="5" fill="#f2a93b" />
      <rect x="336" y="392" width="48" height="10" rx="5" fill="#ffffff" fillOpacity="0.25" />
    </svg>
  );
}
