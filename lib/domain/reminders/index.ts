import { defineModule } from '@/lib/platform/manifest';
import { dispatchRemindersJob } from './jobs';
import { reminderOperations } from './operations';

export const manifest = defineModule({
  name: 'reminders',
  operations: reminderOperations,
  jobs: [dispatchRemindersJob],
});

export { armLadder } from './arm-ladder';
export { contactEmail, greetingName, languageOf } from './recipient';
export { addManualReminder, deleteReminder, listReminders, reminderLadder, remindRefusal, type ScheduledLadder, scheduleLadder } from './reminders';
export { reminderTracking } from './tracking';
export type { TrackingRow } from './schemas';
export { createReminderOperation, deleteReminderOperation, listRemindersOperation, trackingOperation } from './operations';
export { ladderKindOf, parisInstant } from './ladder';
export { ReminderCreate } from './schemas';
