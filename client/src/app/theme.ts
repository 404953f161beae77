import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  parseThemeColor,
  type VariantColorsResolver,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import { networkPrimaryColour, paletteFromColour, type CurrentUser } from '../shared/current-user';

/**
 * Default primary colour: dark teal (spec §1). Shade 7, the one filled buttons and links use in the light
 * scheme, has a 5.8:1 contrast ratio with white text. The active network's own primary colour will
 * override this once user details are loaded.
 */
export const tealDark: MantineColorsTuple = [
  '#e7f5f4',
  '#d0e9e7',
  '#a2d3cf',
  '#71bcb6',
  '#49a8a1',
  '#2f9b94',
  '#1e8a84',
  '#0f716c',
  '#0a5e5a',
  '#054845',
];

/**
 * Text on tinted ("light") badges, buttons and alerts at WCAG AA contrast (issue 18 item 7): Mantine's
 * default, shade 9 of the colour, falls just under 4.5:1 for teal and orange on their own tint (and on a
 * hovered row); a quarter darker clears it for every palette colour.
 */
export const contrastVariantColors: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !parsed.color) return colors;
  const shade = input.theme.colors[parsed.color]?.[9];
  return shade ? { ...colors, color: darken(shade, 0.25) } : colors;
};

export const theme = createTheme({
  variantColorResolver: contrastVariantColors,
  colors: { 'teal-dark': tealDark },
  primaryColor: 'teal-dark',
  primaryShade: { light: 7, dark: 6 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
});

/**
 * Spec §1: the active network's configured colour (from the stored user details) replaces the default
 * dark teal as the primary colour.
 */
export function themeFor(user: CurrentUser | null): MantineThemeOverride {
  const colour = networkPrimaryColour(user);
  if (colour === null) return theme;
  return {
    ...theme,
    colors: { ...theme.colors, network: paletteFromColour(colour) as unknown as MantineColorsTuple },
    primaryColor: 'network',
  };
}

/**
 * Secondary ("dimmed") text at WCAG AA contrast (issue 18 item 7): Mantine's gray 6 (#868e96) is 3.3:1 on
 * white; #5c636a is 6.1:1 on white and 5.8:1 on the page's gray 0 background.
 */
export const contrastVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-placeholder': '#6b7278' },
  dark: {},
});
