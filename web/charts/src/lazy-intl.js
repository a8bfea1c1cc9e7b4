// uPlot makes two Intl objects when its module is evaluated: a
// NumberFormat for its default number labels (which charts.js replaces:
// fmtNum, the legends' fmtValue) and a DateTimeFormat, only to read the
// local time zone's name for uPlot.tzDate (which these charts never
// call). The page's first Intl object loads the ICU data: 30-40 ms of
// CPU, most of the bundle's evaluation, a long task of its own while a
// long run loads. Imported before uPlot, this module stands in for both
// until charts.js calls restore() once uPlot is evaluated:
// - the NumberFormat is made for real if its format is ever called;
// - the time zone's name reads as undefined. tzDate(date, tz) then takes
//   its shortcut (date unchanged) only for an undefined tz, which is the
//   local zone, and converts any named zone as it does for a zone not the
//   local one: the same dates.
const NumberFormat = Intl.NumberFormat;
const DateTimeFormat = Intl.DateTimeFormat;

function LazyNumberFormat(...args) {
  let f = null;
  return { format: (v) => (f ??= new NumberFormat(...args)).format(v) };
}

function LocalZone(...args) {
  if (args.length) return new DateTimeFormat(...args);
  return { resolvedOptions: () => ({}) };
}

Intl.NumberFormat = LazyNumberFormat;
Intl.DateTimeFormat = LocalZone;

export function restore() {
  if (Intl.NumberFormat === LazyNumberFormat) Intl.NumberFormat = NumberFormat;
  if (Intl.DateTimeFormat === LocalZone) Intl.DateTimeFormat = DateTimeFormat;
}
