// The time of day a message shows ("14:03", "02:03 PM"), written here rather than asked of
// Intl.DateTimeFormat: making one loads ICU's date data, which cost the idle window 5 MB and
// the first conversation opened its load (issue 29, docs/benchmarks.md). The format is fixed
// in each of the UI's two languages: what Intl gives for "fr" and "en" with two-digit hours
// and minutes (the test compares them). The long dates of tooltips still come from Intl, made
// when a tooltip is first wanted (fullDate.ts).

/** The time of day of `date` (local time) as the UI's `language` writes it. */
export function clockOf(date: Date, language: string): string {
  const hours = date.getHours();
  const minutes = twoDigits(date.getMinutes());
  if (language === "fr") return `${twoDigits(hours)}:${minutes}`;
  return `${twoDigits(hours % 12 || 12)}:${minutes} ${hours < 12 ? "AM" : "PM"}`;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}
