import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../common/Button';

/**
 * What the side panel's pickers share (context, prompts, the model): the card with its title and
 * Close (Escape closes it too), a search box focused when the picker opens, ArrowUp/ArrowDown
 * moving the active row, Enter choosing, and the list of rows it controls.
 */

export interface PickerCardProps {
  readonly title: ReactNode;
  readonly onClose: () => void;
  readonly children: ReactNode;
}

export function PickerCard({ title, onClose, children }: PickerCardProps) {
  const headingId = useId();
  return (
    <section
      className="sy-card sy-picker"
      aria-labelledby={headingId}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="sy-picker__head">
        <h2 className="sy-card__title" id={headingId}>
          {title}
        </h2>
        <Button size="small" variant="quiet" onClick={onClose}>
          Close
        </Button>
      </div>
      {children}
    </section>
  );
}

/** The active row of a list of `count`, reset to the top by `restart` (a new query). */
export function useActiveRow(count: number): {
  readonly active: number;
  readonly restart: () => void;
  readonly move: (step: 1 | -1) => void;
} {
  const [active, setActive] = useState(0);
  return {
    active,
    restart: () => {
      setActive(0);
    },
    move: (step) => {
      setActive((n) => Math.max(0, Math.min(n + step, count - 1)));
    },
  };
}

export interface PickerSearchProps {
  /** The box's accessible name. */
  readonly label: string;
  readonly placeholder: string;
  /** The id of the list the box controls. */
  readonly listId: string;
  readonly query: string;
  readonly onQuery: (query: string) => void;
  readonly row: ReturnType<typeof useActiveRow>;
  /** Enter: choose what the picker takes to be chosen (the active row, or a typed id). */
  readonly onEnter: () => void;
}

export function PickerSearch({
  label,
  placeholder,
  listId,
  query,
  onQuery,
  row,
  onEnter,
}: PickerSearchProps) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, []);
  return (
    <input
      ref={box}
      type="search"
      className="sy-picker__search"
      aria-label={label}
      aria-controls={listId}
      placeholder={placeholder}
      value={query}
      onChange={(event) => {
        onQuery(event.target.value);
        row.restart();
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown') {
          event.preventDefault();
          row.move(1);
        } else if (event.key === 'ArrowUp') {
          event.preventDefault();
          row.move(-1);
        } else if (event.key === 'Enter') {
          event.preventDefault();
          onEnter();
        }
      }}
    />
  );
}

export interface PickerRowsProps<T> {
  readonly id: string;
  /** The list's accessible name. */
  readonly label: string;
  readonly items: readonly T[];
  readonly active: number;
  readonly keyOf: (item: T) => string;
  readonly render: (item: T) => ReactNode;
  readonly onChoose: (item: T) => void;
  /** The row that is in use now (the model of this chat), marked `aria-current`. */
  readonly isCurrent?: (item: T) => boolean;
}

export function PickerRows<T>({
  id,
  label,
  items,
  active,
  keyOf,
  render,
  onChoose,
  isCurrent,
}: PickerRowsProps<T>) {
  return (
    <ul className="sy-picker__list" id={id} aria-label={label}>
      {items.map((item, index) => (
        <li key={keyOf(item)}>
          <button
            type="button"
            className={`sy-picker__item${index === active ? ' sy-picker__item--active' : ''}`}
            aria-current={isCurrent?.(item) === true ? 'true' : undefined}
            onClick={() => {
              onChoose(item);
            }}
          >
            {render(item)}
          </button>
        </li>
      ))}
    </ul>
  );
}
