import { useId } from 'react';

export interface AutopilotToggleProps {
  readonly on: boolean;
  readonly onChange: (on: boolean) => void;
}

/** Skips prompts for Switchyard's own browser tools; never for MCP tools (design D8). */
export function AutopilotToggle({ on, onChange }: AutopilotToggleProps) {
  const hintId = useId();
  return (
    <div className="sy-autopilot">
      <label>
        <input
          type="checkbox"
          checked={on}
          aria-describedby={hintId}
          onChange={(event) => {
            onChange(event.currentTarget.checked);
          }}
        />
        Autopilot (built-in tools only)
      </label>
      <p id={hintId} className="sy-hint">
        Reads tabs without asking. MCP tool calls still ask unless you allow-listed them.
      </p>
    </div>
  );
}
