// What a client component may take of dates: the Europe/Paris wall clock (pure, without the holiday tables).
export { parisEndOfDay, parisInstant, todayParis } from './paris';
