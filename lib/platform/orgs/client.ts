// What a client component may take of orgs: the organisation form's Alsace-Moselle hint. Pure.
export { suggestsAlsaceMoselle } from './calendar';
