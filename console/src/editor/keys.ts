import type { KeyBinding } from '@codemirror/view';

/**
 * Ctrl+Enter (⌘Enter) runs, in place of the default keymap's blank line:
 * the key playgrounds run with. Without run, the default stands.
 */
export function runKeymap(run: (() => void) | undefined): KeyBinding[] {
  if (!run) return [];
  return [
    {
      key: 'Mod-Enter',
      run: () => {
        run();
        return true;
      },
    },
  ];
}
