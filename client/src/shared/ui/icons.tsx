/** Small stroke icons (24×24 grid) drawn inline: the project has no icon package. Decorative only. */

const PATHS = {
  dashboard: ['M4 4h7v7H4z', 'M13 4h7v4h-7z', 'M13 10h7v10h-7z', 'M4 13h7v7H4z'],
  bell: ['M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15Z', 'M10 20a2 2 0 0 0 4 0'],
  book: [
    'M12 6.5C10.2 5.2 7.6 4.6 4 4.8v13.4c3.6-.2 6.2.4 8 1.8 1.8-1.4 4.4-2 8-1.8V4.8c-3.6-.2-6.2.4-8 1.7Z',
    'M12 6.5V20',
  ],
  network: [
    'M12 3v6',
    'M5 15v-2h14v2',
    'M12 9v4',
    'M3 15h4v5H3z',
    'M10 15h4v5h-4z',
    'M17 15h4v5h-4z',
    'M9 3h6v6H9z',
  ],
  users: [
    'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Z',
    'M2.5 20a6.5 6.5 0 0 1 13 0',
    'M16 4.5a3.5 3.5 0 0 1 0 6.5',
    'M18 14a6 6 0 0 1 3.5 6',
  ],
  video: ['M3 6h12v12H3z', 'M15 10l6-3v10l-6-3'],
  report: ['M6 3h9l4 4v14H6z', 'M14 3v5h5', 'M9 12h7', 'M9 16h7'],
  building: ['M4 21V5l8-2v18', 'M12 7l8 3v11', 'M2 21h20', 'M7 8h2M7 12h2M7 16h2M15 12h2M15 16h2'],
  shield: ['M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6Z', 'M9 12l2 2 4-4'],
  calendar: ['M4 6h16v14H4z', 'M4 10h16', 'M8 3v5M16 3v5'],
  clipboard: ['M8 4h8v3H8z', 'M6 5H5v16h14V5h-1', 'M9 12l2 2 4-4'],
  user: ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z', 'M4 21a8 8 0 0 1 16 0'],
  bulb: [
    'M9 18h6',
    'M10 21h4',
    'M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3Z',
  ],
  message: ['M4 5h16v11H9l-5 4Z'],
  home: ['M3 11l9-7 9 7', 'M5 10v10h14V10'],
  tag: ['M3 12V3h9l9 9-9 9Z', 'M7.5 7.5h.01'],
  coin: [
    'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z',
    'M15 9.5c-.5-1-1.6-1.5-3-1.5-1.7 0-3 .8-3 2s1.3 1.7 3 2 3 .8 3 2-1.3 2-3 2c-1.4 0-2.5-.5-3-1.5',
    'M12 6v2M12 16v2',
  ],
  check: ['M4 12l5 5L20 6'],
  server: ['M4 4h16v6H4z', 'M4 14h16v6H4z', 'M8 7h.01M8 17h.01'],
  mail: ['M3 5h18v14H3z', 'M3 6l9 7 9-7'],
  megaphone: ['M3 10v4h4l8 5V5L7 10Z', 'M18 9a4 4 0 0 1 0 6'],
  ticket: ['M3 7h18v4a2 2 0 0 0 0 4v4H3v-4a2 2 0 0 0 0-4Z', 'M14 7v12'],
  compass: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'M15.5 8.5l-2 5-5 2 2-5Z'],
  route: [
    'M6 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z',
    'M18 9a2 2 0 1 0 0-4 2 2 0 0 0 0 4Z',
    'M6 15V9a3 3 0 0 1 3-3h7',
    'M18 9v6a3 3 0 0 1-3 3H8',
  ],
  layout: ['M3 4h18v16H3z', 'M3 9h18', 'M9 9v11'],
  logout: ['M15 4h4v16h-4', 'M10 8l-4 4 4 4', 'M6 12h10'],
  key: ['M14 10a4 4 0 1 0-4 4', 'M13 11l8 8', 'M17 15l2-2', 'M19 17l2-2'],
  chevronDown: ['M6 9l6 6 6-6'],
  arrowRight: ['M5 12h14', 'M13 6l6 6-6 6'],
  arrowLeft: ['M19 12H5', 'M11 6l-6 6 6 6'],
  upload: ['M12 16V4', 'M7 9l5-5 5 5', 'M4 20h16'],
  clock: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'M12 7v5l3 2'],
  lock: ['M5 11h14v10H5z', 'M8 11V7a4 4 0 0 1 8 0v4'],
  hammer: ['M14 4l6 6-2 2-6-6Z', 'M12 8l-8 8 2 2 8-8', 'M3 21h8'],
  link: [
    'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1',
    'M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  ],
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 18, stroke = 1.8 }: { name: IconName; size?: number; stroke?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={stroke}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
