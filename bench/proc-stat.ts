/**
 * CPU a process or thread has used so far, from its /proc/…/stat line (Linux): utime + stime, fields 14 and 15,
 * counted after the name's closing parenthesis (a name may itself hold spaces or parentheses), in clock ticks of
 * 10 ms.
 */
export function cpuMsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
