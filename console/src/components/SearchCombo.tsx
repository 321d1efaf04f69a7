// A box that finds its choices on the server as you type (a combobox), so
// that any one of however many an organization has can be chosen: the
// group filter of the lists, the owner of a new API key.
import { useCallback, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useServerSearch } from '../searchTerm';

/** How many choices the list under the box offers at once. */
export const OFFERED = 8;

export interface Choice {
  /** '' for the choice of none (all groups, the organization). */
  id: string;
  name: string;
  /** Shown after the name in the list, muted: a member's name after the email. */
  detail?: string;
}

/** The choices a search found, and whether the server has more matches than those. */
export interface Found {
  choices: Choice[];
  more: boolean;
}

/** What the list says, in the words of what it lists. */
export interface ComboWords {
  /** The list's name: Groups. */
  list: string;
  /** No group matches. */
  noMatch: string;
  /** More groups match: type more of the name. */
  moreMatch: string;
  /** More groups: type part of a name to find them. */
  more: string;
}

/**
 * A combobox naming the chosen choice (chosen, '' for none; shown, its
 * name): a click, an arrow key or typing lists up to OFFERED choices that
 * find gives for what was typed, after none while nothing is, and picking
 * one, by click or Enter, calls onPick. Leaving the box without picking
 * puts the chosen name back. find must keep its identity across renders.
 */
export function SearchCombo({
  id,
  none,
  chosen,
  shown,
  find,
  words,
  onPick,
}: {
  id: string;
  none: Choice;
  chosen: string;
  /** '' while the chosen choice's name loads. */
  shown: string;
  find: (query: string | null, first: number) => Promise<Found>;
  words: ComboWords;
  onPick: (choice: Choice) => void;
}) {
  // What was typed since the list opened; null until something is.
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  const query = typed?.trim() ?? '';
  const search = useCallback((q: string) => find(q || null, OFFERED), [find]);
  const { found, error } = useServerSearch(search, query, open);

  const choices = found ? [...(query ? [] : [none]), ...found.choices] : [];
  // A new search's choices may be fewer than the last one's.
  const activeIndex = Math.min(active, choices.length - 1);
  const current = open ? choices[activeIndex] : undefined;
  const close = () => {
    setOpen(false);
    setTyped(null);
  };
  const pick = (choice: Choice) => {
    close();
    onPick(choice);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        setActive(0);
        setOpen(true);
      } else setActive((a) => Math.max(0, Math.min(choices.length - 1, a + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter' && open) {
      // Enter belongs to the open list, even while it searches: it does not submit a form around the box.
      e.preventDefault();
      if (current) pick(current);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close();
    }
  };

  const listId = `${id}-choices`;
  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="combo">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={current ? optionId(activeIndex) : undefined}
        autoComplete="off"
        value={typed ?? (chosen ? shown : '')}
        // While a chosen choice's name loads, the box must not read as none.
        placeholder={chosen ? undefined : none.name}
        onChange={(e) => {
          setTyped(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => {
          if (!open) setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {open && (
        <div className="combo-popup">
          <ul role="listbox" id={listId} aria-label={words.list}>
            {choices.map((c, i) => (
              <li
                key={c.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                className={i === activeIndex ? 'combo-active' : undefined}
                // Keeps the focus in the box, which closes the list when it loses it.
                onMouseDown={(e) => e.preventDefault()}
                onMouseMove={() => setActive(i)}
                onClick={() => pick(c)}
              >
                {c.name}
                {c.detail && <span className="muted"> · {c.detail}</span>}
              </li>
            ))}
          </ul>
          {error && <p className="field-error">{error}</p>}
          {found === null && !error && <p className="muted small">Searching…</p>}
          {found && query && found.choices.length === 0 && <p className="muted small">{words.noMatch}</p>}
          {found?.more && <p className="muted small">{query ? words.moreMatch : words.more}</p>}
        </div>
      )}
    </div>
  );
}
