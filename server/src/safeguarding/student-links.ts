import { Injectable } from '@nestjs/common';
import { StudentLinksReadModel } from '../identity/relations/student-links.read.js';

/**
 * The students a partner is linked to ("selected students", spec §6), from the student-links read
 * model (docs/decisions/0034): only students who still exist and still belong to the partner's
 * customer count. The selected-students submit permission allows reports about exactly these.
 */
@Injectable()
export class StudentLinks {
  constructor(private readonly links: StudentLinksReadModel) {}

  linkedStudents(partnerId: string): Promise<ReadonlySet<string>> {
    return this.links.studentIdsOf(partnerId);
  }
}
