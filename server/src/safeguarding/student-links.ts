import { Injectable } from '@nestjs/common';

/**
 * The students a partner is linked to ("selected students", spec §6). The portal has no student
 * relations yet (see docs/decisions/0024-safeguarding-access-tiers.md): until it does, a partner has no
 * linked students, so the selected-students submit permission allows no report (refused, never widened).
 * When relations land, this is the one place to read them.
 */
@Injectable()
export class StudentLinks {
  linkedStudents(_partnerId: string): Promise<ReadonlySet<string>> {
    return Promise.resolve(new Set<string>());
  }
}
